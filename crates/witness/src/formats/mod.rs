//! Puzzle formats: reading them into a [`Puzzle`](crate::model::Puzzle) and writing them back.

pub mod wpjson;

//! What both studies share: configuration pieces with one set of names (`config`), one seeding
//! scheme (`seeding`), one statistics module (`stats`), splitting into shards (`shard`), one
//! progress display (`progress`), result files written whole (`output`), and the figures
//! (`plot`).
pub mod bounds;
pub mod config;
pub mod output;
pub mod plot;
pub mod progress;
pub mod seeding;
pub mod shard;
pub mod stats;

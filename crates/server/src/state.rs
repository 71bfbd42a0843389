use std::sync::Arc;

use strikeline_store::Db;

use crate::config::Config;

/// What every handler can reach.
#[derive(Clone, Debug)]
pub struct AppState {
    pub db: Db,
    pub config: Arc<Config>,
}

//! One route of the server ([`Route`]): the router ([`crate::router`]) is built from a list of
//! them, to which the page ([`crate::web`]) and the studies ([`crate::variants`]) add theirs.

use axum::handler::Handler;
use axum::http::Method;
use axum::routing::{MethodRouter, get, post};

use crate::state::AppState;

/// One route of the server: a method on a path, and the handler that answers it.
pub(crate) struct Route {
    pub(crate) method: Method,
    pub(crate) path: &'static str,
    pub(crate) handler: MethodRouter<AppState>,
}

impl Route {
    /// `GET path`, answered by `handler` (axum answers `HEAD` with it too).
    pub(crate) fn get<H: Handler<T, AppState>, T: 'static>(
        path: &'static str,
        handler: H,
    ) -> Route {
        Route {
            method: Method::GET,
            path,
            handler: get(handler),
        }
    }

    /// `POST path`, answered by `handler`.
    pub(crate) fn post<H: Handler<T, AppState>, T: 'static>(
        path: &'static str,
        handler: H,
    ) -> Route {
        Route {
            method: Method::POST,
            path,
            handler: post(handler),
        }
    }
}

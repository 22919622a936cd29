//! Following a server's `notifications/resources/list_changed` (the Skills extension has no
//! notification of its own: skill files are resources, so a changed catalog is a changed
//! resource list). On an `initialize` session the server pushes it unasked and rmcp hands
//! it to [`ClientHandler::on_resource_list_changed`]; on a `2026-07-28` session a server
//! sends it only on a `subscriptions/listen` stream that asked for it, which
//! [`ListChanged::listen`] opens.

use rmcp::model::{ServerNotification, SubscriptionFilter};
use rmcp::service::{NotificationContext, RunningService};
use rmcp::{ClientHandler, RoleClient};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

type Hook = Arc<dyn Fn() + Send + Sync>;

/// Whether the server's catalog changed since the flag was last taken, and who to tell.
#[derive(Clone, Default)]
pub struct ListChanged {
    flag: Arc<AtomicBool>,
    hooks: Arc<Mutex<Vec<Hook>>>,
}

impl std::fmt::Debug for ListChanged {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ListChanged")
            .field("changed", &self.is_set())
            .finish_non_exhaustive()
    }
}

impl ListChanged {
    /// Whether a change arrived that nobody took yet.
    pub fn is_set(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
    }

    /// Clear the flag, returning whether it was set (the caller lists again).
    pub fn take(&self) -> bool {
        self.flag.swap(false, Ordering::SeqCst)
    }

    /// Call `hook` on every change from now on (from the connection's thread: it must not
    /// block).
    pub fn on_change(&self, hook: Hook) {
        self.lock().push(hook);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Hook>> {
        self.hooks.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn fire(&self) {
        self.flag.store(true, Ordering::SeqCst);
        let hooks = self.lock().clone();
        for hook in hooks {
            hook();
        }
    }

    /// On a `2026-07-28` session with a server that announces resource list changes, open
    /// the `subscriptions/listen` stream for them and follow it in a task of the current
    /// runtime until the connection ends. Earlier sessions need nothing: the server pushes.
    pub(crate) async fn listen(&self, service: &RunningService<RoleClient, ListChanged>) {
        let Some(info) = service.peer_info() else {
            return;
        };
        let announces = info
            .capabilities
            .resources
            .as_ref()
            .and_then(|r| r.list_changed)
            == Some(true);
        if !announces || info.protocol_version < rmcp::model::ProtocolVersion::V_2026_07_28 {
            return;
        }
        let filter = SubscriptionFilter::builder()
            .resources_list_changed()
            .build();
        let subscription = tokio::time::timeout(
            crate::client::REQUEST_TIMEOUT,
            service.peer().listen(filter),
        )
        .await;
        // A server that refuses the stream still serves skills; changes then go unseen
        // until the next connection, as with a server that never announces them.
        let Ok(Ok(mut subscription)) = subscription else {
            return;
        };
        let this = self.clone();
        tokio::spawn(async move {
            while let Ok(Some(notification)) = subscription.next().await {
                if matches!(
                    notification,
                    ServerNotification::ResourceListChangedNotification(_)
                ) {
                    this.fire();
                }
            }
        });
    }
}

impl ClientHandler for ListChanged {
    async fn on_resource_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.fire();
    }
}

//! Long operations that stream to a callback while they work: installs (progress) and runs
//! (exec events).
//!
//! The work runs on its own thread (a run may last minutes: it must not hold one of the
//! four libuv pool threads that `fs` and `dns` share). Everything it produces, the streamed
//! values and then the result or the error, goes to JS through ONE thread-safe function,
//! whose queue is FIFO: the JS side (`main.cjs`) settles the Promise on the last message,
//! so every event has been delivered before the `await` returns. A Promise resolved through
//! a second channel (an `AsyncTask`) could overtake queued events.

use crate::error::{engine_object, install_object, run_object, to_js};
use napi::bindgen_prelude::*;
use napi::sys;
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use serde::Serialize;
use serde_json::Value;
use std::sync::Arc;

/// Why an operation produced no result.
pub enum Failure {
    Install(skilldeck_install::InstallError),
    Run(skilldeck_run::RunError),
    Engine(skilldeck::Error),
}

impl From<skilldeck::Error> for Failure {
    fn from(err: skilldeck::Error) -> Self {
        Failure::Engine(err)
    }
}

/// One message to the JS dispatcher: `{ kind: 'event' | 'done' | 'error', value }`.
pub enum Message {
    Event(Value),
    Done(Value),
    Failed(Failure),
}

impl ToNapiValue for Message {
    unsafe fn to_napi_value(raw: sys::napi_env, message: Self) -> Result<sys::napi_value> {
        let env = Env::from_raw(raw);
        let mut object = Object::new(&env)?;
        match message {
            Message::Event(value) => {
                object.set("kind", "event")?;
                object.set("value", value)?;
            }
            Message::Done(value) => {
                object.set("kind", "done")?;
                object.set("value", value)?;
            }
            Message::Failed(failure) => {
                let error = match &failure {
                    Failure::Install(err) => install_object(&env, err)?,
                    Failure::Run(err) => run_object(&env, err)?,
                    Failure::Engine(err) => engine_object(&env, err)?,
                };
                object.set("kind", "error")?;
                object.set("value", error)?;
            }
        }
        Ok(object.raw())
    }
}

type Channel = ThreadsafeFunction<Message, (), Message, Status, false>;

/// Hands values to the JS dispatcher from any thread, without blocking (the queue is
/// unbounded; a closing environment drops them).
#[derive(Clone)]
pub struct Emitter(Arc<Channel>);

impl Emitter {
    /// Deliver `value`'s serde form as an event.
    pub fn emit<T: Serialize + ?Sized>(&self, value: &T) {
        if let Ok(value) = serde_json::to_value(value) {
            self.send(Message::Event(value));
        }
    }

    fn send(&self, message: Message) {
        let _ = self
            .0
            .call(message, ThreadsafeFunctionCallMode::NonBlocking);
    }
}

/// Run `work` on a new thread; its result (serialised) or failure, a panic included as
/// `INTERNAL`, is the last message `dispatch` receives.
pub fn spawn<T, F>(env: &Env, dispatch: Function<'_, Message, ()>, work: F) -> Result<()>
where
    T: Serialize,
    F: FnOnce(Emitter) -> std::result::Result<T, Failure> + Send + 'static,
{
    let channel: Channel = dispatch
        .build_threadsafe_function()
        .callee_handled::<false>()
        .build()?;
    let emitter = Emitter(Arc::new(channel));
    std::thread::Builder::new()
        .name("skilldeck-worker".into())
        .spawn(move || {
            let done = emitter.clone();
            let result = skilldeck::catch_panic(move || Ok(work(emitter)));
            let message = match result {
                Ok(Ok(value)) => match serde_json::to_value(&value) {
                    Ok(value) => Message::Done(value),
                    Err(e) => Message::Failed(Failure::Engine(skilldeck::Error::Internal {
                        message: format!("cannot serialise the result: {e}"),
                    })),
                },
                Ok(Err(failure)) => Message::Failed(failure),
                Err(panic) => Message::Failed(Failure::Engine(panic)),
            };
            done.send(message);
        })
        .map(|_| ())
        .map_err(|e| {
            to_js(
                env,
                &skilldeck::Error::Internal {
                    message: format!("cannot start the worker thread: {e}"),
                },
            )
        })
}

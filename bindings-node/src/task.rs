//! One `AsyncTask` for every long core call: the closure runs on the libuv pool, the
//! result (or the core error, as a JS error with `code`/`path`) is built back on the JS thread.

use crate::error::to_js;
use napi::bindgen_prelude::*;

type Work<C> = Box<dyn FnOnce() -> skilldeck::Result<C> + Send>;

/// Runs `work` off the main thread and wraps its output with `wrap`.
pub struct CoreTask<C, J> {
    work: Option<Work<C>>,
    wrap: fn(C) -> J,
}

impl<C, J> CoreTask<C, J> {
    pub fn spawn(
        work: impl FnOnce() -> skilldeck::Result<C> + Send + 'static,
        wrap: fn(C) -> J,
    ) -> AsyncTask<Self>
    where
        Self: Task,
    {
        AsyncTask::new(CoreTask {
            work: Some(Box::new(work)),
            wrap,
        })
    }
}

impl<C, J> Task for CoreTask<C, J>
where
    C: Send + 'static,
    J: ToNapiValue + TypeName,
{
    // The core error travels as data: a JS error object can only be built on the JS thread.
    type Output = skilldeck::Result<C>;
    type JsValue = J;

    fn compute(&mut self) -> Result<Self::Output> {
        match self.work.take() {
            // A panic unwinding out of the pool thread would abort Node: it becomes an
            // `INTERNAL` rejection instead.
            Some(work) => Ok(skilldeck::catch_panic(work)),
            None => Err(Error::from_reason("skilldeck task was run twice")),
        }
    }

    fn resolve(&mut self, env: Env, output: Self::Output) -> Result<J> {
        match output {
            Ok(value) => Ok((self.wrap)(value)),
            Err(err) => Err(to_js(&env, &err)),
        }
    }
}

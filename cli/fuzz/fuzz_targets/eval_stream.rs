//! `pbgi eval`'s whole stream (reader, fast engine or, for a function it lacks, the reference,
//! CSV writer) on arbitrary bytes: never a
//! panic, never a row written in part, an error always naming a line. The first byte picks the
//! function.
#![no_main]
use libfuzzer_sys::fuzz_target;
use pbgi_cli::eval::eval_stream;
use pbgi_conformance::function::Function;
use pbgi_conformance::oracle::{fast_has, Engine};

fuzz_target!(|data: &[u8]| {
    let Some((&selector, bytes)) = data.split_first() else {
        return;
    };
    let function = Function::ALL[usize::from(selector) % Function::ALL.len()];
    let engine = if fast_has(function) {
        Engine::Fast
    } else {
        Engine::Reference
    };
    let mut output = Vec::new();
    let outcome = eval_stream(function, engine, bytes, &mut output);
    assert!(output.is_empty() || output.ends_with(b"\n"));
    if let Err(error) = outcome {
        assert!(error.to_string().starts_with("line "), "{error}");
    }
});

//! GMP's memory functions (which MPFR uses for every float's limbs) with a per-thread cache of
//! freed small blocks, so that the short-lived MPFR temporaries of a certified call reuse the
//! blocks of the previous call instead of going through `malloc`/`free` each time.
//!
//! Only blocks of 8 to [`LARGEST`] bytes whose size is a multiple of 8 are cached (an MPFR
//! float of precision `≤ 448` bits: its header limb and its mantissa limbs), in one stack per
//! size, exactly that size: GMP and MPFR pass `free` and `reallocate` the size the block was
//! requested with (GMP's manual, "Custom Allocation"), so a cached block is handed out again
//! only for a request of the very size it was allocated with. Every other request, and a full
//! stack, goes to the functions that were installed before (GMP's defaults: `malloc`,
//! `realloc`, `free`), and every cached block came from them, so a block may be freed by either
//! set of functions and on any thread: the cache never changes which memory is live, only when
//! a freed block is returned to `malloc`. Each thread returns its cached blocks when it exits.
//!
//! The gmp-mpfr-sys build is linked statically, so these functions serve this crate's copy of
//! GMP only (another GMP in the same process, such as Python's gmpy2, keeps its own).
//! Checked by `tests::cached_blocks_keep_their_contents` and
//! `tests::floats_across_threads_are_unchanged`.

use gmp_mpfr_sys::gmp;
use std::cell::UnsafeCell;
use std::ffi::c_void;
use std::sync::OnceLock;

/// The largest cached block, in bytes.
const LARGEST: usize = 64;
/// Number of sizes cached: 8, 16, …, [`LARGEST`] bytes.
const SIZES: usize = LARGEST / 8;
/// Blocks kept per size and thread.
const DEPTH: usize = 64;

type Alloc = extern "C" fn(usize) -> *mut c_void;
type Realloc = unsafe extern "C" fn(*mut c_void, usize, usize) -> *mut c_void;
type Free = unsafe extern "C" fn(*mut c_void, usize);

/// The memory functions installed before [`install`] (GMP's defaults).
static PREVIOUS: OnceLock<(Alloc, Realloc, Free)> = OnceLock::new();

/// One thread's freed blocks, a stack per size.
struct Cache {
    blocks: [[*mut c_void; DEPTH]; SIZES],
    len: [usize; SIZES],
}

impl Drop for Cache {
    fn drop(&mut self) {
        if let Some(&(_, _, free)) = PREVIOUS.get() {
            for (class, stack) in self.blocks.iter().enumerate() {
                for &block in &stack[..self.len[class]] {
                    // SAFETY: a cached block is a live block of `class_size(class)` bytes from
                    // the previous allocator, owned by the cache alone.
                    unsafe { free(block, class_size(class)) };
                }
            }
        }
        self.len = [0; SIZES];
    }
}

thread_local! {
    static CACHE: UnsafeCell<Cache> = const {
        UnsafeCell::new(Cache {
            blocks: [[std::ptr::null_mut(); DEPTH]; SIZES],
            len: [0; SIZES],
        })
    };
}

/// The stack serving blocks of `size` bytes, if that size is cached.
fn class_of(size: usize) -> Option<usize> {
    (size != 0 && size <= LARGEST && size % 8 == 0).then(|| size / 8 - 1)
}

fn class_size(class: usize) -> usize {
    8 * (class + 1)
}

fn previous() -> (Alloc, Realloc, Free) {
    *PREVIOUS.get().expect("limb_memory: used before install")
}

extern "C" fn allocate(size: usize) -> *mut c_void {
    if let Some(class) = class_of(size) {
        let cached = CACHE
            .try_with(|cache| {
                // SAFETY: the only references to this thread's cache are made here and in
                // `free`, each dropped before it returns; neither calls anything that could
                // re-enter them (no allocation inside), so this one is unique.
                let cache = unsafe { &mut *cache.get() };
                let len = cache.len[class];
                (len > 0).then(|| {
                    cache.len[class] = len - 1;
                    cache.blocks[class][len - 1]
                })
            })
            .ok()
            .flatten();
        if let Some(block) = cached {
            return block;
        }
    }
    (previous().0)(size)
}

unsafe extern "C" fn free(ptr: *mut c_void, size: usize) {
    if let Some(class) = class_of(size) {
        let kept = CACHE
            .try_with(|cache| {
                // SAFETY: as in `allocate`, this reference is the only one.
                let cache = unsafe { &mut *cache.get() };
                let len = cache.len[class];
                if len == DEPTH {
                    return false;
                }
                cache.blocks[class][len] = ptr;
                cache.len[class] = len + 1;
                true
            })
            .unwrap_or(false);
        if kept {
            return;
        }
    }
    // SAFETY: `ptr` is a live block of `size` bytes from the previous allocator family.
    unsafe { (previous().2)(ptr, size) }
}

unsafe extern "C" fn reallocate(ptr: *mut c_void, old_size: usize, new_size: usize) -> *mut c_void {
    if class_of(old_size).is_some() && old_size == new_size {
        return ptr;
    }
    // SAFETY: `ptr` is a live block of `old_size` bytes from the previous allocator family
    // (whether or not it passed through the cache).
    unsafe { (previous().1)(ptr, old_size, new_size) }
}

/// Installs the cached memory functions for this crate's GMP/MPFR (once per process; later
/// calls cost an atomic load).
pub(crate) fn install() {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        let (mut a, mut r, mut f) = (None, None, None);
        // SAFETY: reads GMP's current memory functions (never null once GMP is linked).
        unsafe { gmp::get_memory_functions(&mut a, &mut r, &mut f) };
        let (Some(a), Some(r), Some(f)) = (a, r, f) else {
            return;
        };
        if PREVIOUS.set((a, r, f)).is_err() {
            return;
        }
        // SAFETY: the new functions serve every request through the previous ones or from
        // blocks those returned, so blocks allocated before or after this call may be freed by
        // either set (module documentation).
        unsafe { gmp::set_memory_functions(Some(allocate), Some(reallocate), Some(free)) };
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use rug::Float;

    #[test]
    fn cached_blocks_keep_their_contents() {
        install();
        // Fill blocks of every cached size (and some others) with a pattern, free half, allocate
        // again, and check that no live block was disturbed.
        let sizes = [8usize, 16, 24, 32, 40, 48, 56, 64, 12, 72, 200];
        for round in 0..50u8 {
            let mut live: Vec<(*mut u8, usize, u8)> = Vec::new();
            for (i, &size) in sizes.iter().cycle().take(300).enumerate() {
                // GMP's allocation functions as installed, used with matching sizes.
                let p = allocate(size) as *mut u8;
                let tag = (i as u8).wrapping_add(round);
                unsafe { std::ptr::write_bytes(p, tag, size) };
                live.push((p, size, tag));
                if i % 3 == 0 {
                    let (q, s, _) = live.swap_remove(i % live.len());
                    unsafe { free(q as *mut c_void, s) };
                }
                if i % 7 == 0 && !live.is_empty() {
                    let at = i % live.len();
                    let (q, s, t) = live[at];
                    let new = sizes[(i / 7) % sizes.len()];
                    let r = unsafe { reallocate(q as *mut c_void, s, new) } as *mut u8;
                    for k in 0..s.min(new) {
                        assert_eq!(unsafe { *r.add(k) }, t);
                    }
                    unsafe { std::ptr::write_bytes(r, t, new) };
                    live[at] = (r, new, t);
                }
            }
            for (p, size, tag) in live {
                for k in 0..size {
                    assert_eq!(unsafe { *p.add(k) }, tag, "block of {size} bytes changed");
                }
                unsafe { free(p as *mut c_void, size) };
            }
        }
    }

    #[test]
    fn a_freed_block_is_handed_out_again_for_its_size() {
        install();
        // A fresh test thread starts with an empty cache: a block freed at a cached size is
        // kept in this thread's stack for that size (indexed here as size/8 - 1) and is the
        // next one allocated at that size (the reuse the cache exists for; `malloc` itself may
        // also return the block it just freed, hence the stack depths).
        let depth = |size: usize| CACHE.with(|cache| unsafe { (*cache.get()).len[size / 8 - 1] });
        for size in (8..=LARGEST).step_by(8) {
            let first = allocate(size);
            unsafe { free(first, size) };
            assert_eq!(depth(size), 1, "a freed block of {size} bytes was not kept");
            let again = allocate(size);
            assert_eq!((first, depth(size)), (again, 0), "size {size}: not reused");
            unsafe { free(again, size) };
        }
    }

    #[test]
    fn floats_across_threads_are_unchanged() {
        install();
        // Floats made on one thread and dropped on another (as `pbgi eval`'s worker threads
        // hand results to the writer), at precisions inside and outside the cached sizes.
        let made: Vec<Float> = std::thread::spawn(|| {
            (1..400u32)
                .map(|k| Float::with_val(k, 1) / Float::with_val(k, 3 + k))
                .collect()
        })
        .join()
        .unwrap();
        for (k, f) in (1..400u32).zip(&made) {
            let expected = Float::with_val(k, 1) / Float::with_val(k, 3 + k);
            assert_eq!(f, &expected);
            assert_eq!(f.prec(), k);
        }
        drop(made);
        let mut f = Float::with_val(64, 1.5);
        for prec in [30u32, 64, 128, 200, 64, 500, 8] {
            f.set_prec(prec);
            assert_eq!(f, 1.5);
        }
    }
}

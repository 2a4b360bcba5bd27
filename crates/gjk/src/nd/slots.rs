//! [`Slots`]: room for N + 1 values on the stack, the size of a full simplex of ℝᴺ (stable Rust cannot write
//! `[T; N + 1]` for a const generic N, so the last slot is kept beside an `[T; N]`).

use core::ops::{Index, IndexMut};

/// Up to N + 1 values of `T`, the first `len` in use.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slots<T: Copy, const N: usize> {
    head: [T; N],
    last: T,
    len: usize,
}

impl<T: Copy, const N: usize> Slots<T, N> {
    /// No value in use; every slot holds `fill` (never read before it is written).
    #[inline]
    pub(crate) fn new(fill: T) -> Self {
        Self { head: [fill; N], last: fill, len: 0 }
    }

    /// How many values are in use.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when none is.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Appends a value (the caller keeps `len ≤ N + 1`).
    #[inline]
    pub(crate) fn push(&mut self, x: T) {
        let i = self.len;
        self.len += 1;
        self[i] = x;
    }

    /// Removes the value at `i`, moving the last one into its place (order is not kept).
    #[inline]
    pub(crate) fn swap_remove(&mut self, i: usize) {
        self.len -= 1;
        let last = self[self.len];
        self[i] = last;
    }

    /// The values in use, in order.
    pub fn iter(&self) -> impl Iterator<Item = &T> + '_ {
        (0..self.len).map(move |i| &self[i])
    }
}

impl<T: Copy, const N: usize> Index<usize> for Slots<T, N> {
    type Output = T;
    #[inline]
    fn index(&self, i: usize) -> &T {
        debug_assert!(i <= N, "slot {i} of {}", N + 1);
        if i < N {
            &self.head[i]
        } else {
            &self.last
        }
    }
}

impl<T: Copy, const N: usize> IndexMut<usize> for Slots<T, N> {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut T {
        debug_assert!(i <= N, "slot {i} of {}", N + 1);
        if i < N {
            &mut self.head[i]
        } else {
            &mut self.last
        }
    }
}

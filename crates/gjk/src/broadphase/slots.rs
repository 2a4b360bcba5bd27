//! Proxy slots: the id of a proxy is the index of its slot. Both broadphases hand out ids the same way, so the
//! same sequence of inserts and removes gives the same ids in each (the tests compare their pairs directly).
//!
//! A removed proxy's slot is not reused until the next pair update has reported the removal of its pairs:
//! until then its id still names the old proxy in the candidate list. Freed slots are reused last-freed first.

use super::{BroadPhaseError, ProxyId};
use alloc::vec::Vec;

#[derive(Clone, Debug)]
enum Slot<T> {
    Live(T),
    /// Removed since the last pair update: its pairs are still in the candidate list.
    Removed,
    Free,
}

/// Proxy records by id.
#[derive(Clone, Debug)]
pub(crate) struct Slots<T> {
    slots: Vec<Slot<T>>,
    /// Free slot indices; the last pushed is reused first.
    free: Vec<u32>,
    /// Slots removed since the last [`Slots::release_removed`].
    removed: Vec<u32>,
    live: usize,
}

impl<T> Default for Slots<T> {
    fn default() -> Self {
        Self { slots: Vec::new(), free: Vec::new(), removed: Vec::new(), live: 0 }
    }
}

impl<T> Slots<T> {
    /// Stores `value` in a free slot (or a new one) and returns its id.
    pub fn insert(&mut self, value: T) -> Result<ProxyId, BroadPhaseError> {
        let index = match self.free.pop() {
            Some(i) => {
                self.slots[i as usize] = Slot::Live(value);
                i
            }
            None => {
                // u32::MAX stays free for the trees' "no node" marker.
                let i = u32::try_from(self.slots.len()).ok().filter(|&i| i < u32::MAX).ok_or(BroadPhaseError::Full)?;
                self.slots.push(Slot::Live(value));
                i
            }
        };
        self.live += 1;
        Ok(ProxyId(index))
    }

    /// Takes a live proxy out; its slot waits for [`Slots::release_removed`].
    pub fn remove(&mut self, id: ProxyId) -> Result<T, BroadPhaseError> {
        let slot = self.slots.get_mut(id.0 as usize).ok_or(BroadPhaseError::UnknownProxy(id))?;
        match core::mem::replace(slot, Slot::Removed) {
            Slot::Live(value) => {
                self.removed.push(id.0);
                self.live -= 1;
                Ok(value)
            }
            other => {
                *slot = other;
                Err(BroadPhaseError::UnknownProxy(id))
            }
        }
    }

    /// Makes the slots removed since the last call free for reuse.
    pub fn release_removed(&mut self) {
        for &i in &self.removed {
            self.slots[i as usize] = Slot::Free;
        }
        self.free.extend_from_slice(&self.removed);
        self.removed.clear();
    }

    /// True when some proxy was removed since the last [`Slots::release_removed`].
    pub fn any_removed(&self) -> bool {
        !self.removed.is_empty()
    }

    /// The slots removed since the last [`Slots::release_removed`].
    pub fn removed(&self) -> &[u32] {
        &self.removed
    }

    /// The live proxy `id`.
    pub fn get(&self, id: ProxyId) -> Option<&T> {
        match self.slots.get(id.0 as usize) {
            Some(Slot::Live(v)) => Some(v),
            _ => None,
        }
    }

    /// The live proxy `id`, mutably.
    pub fn get_mut(&mut self, id: ProxyId) -> Option<&mut T> {
        match self.slots.get_mut(id.0 as usize) {
            Some(Slot::Live(v)) => Some(v),
            _ => None,
        }
    }

    /// The live proxy at slot `index`, which the caller knows to be live (a tree leaf's proxy).
    pub fn live(&self, index: u32) -> &T {
        match &self.slots[index as usize] {
            Slot::Live(v) => v,
            _ => unreachable!("slot {index} is not live"),
        }
    }

    /// The live proxy at slot `index`, mutably (see [`Slots::live`]).
    pub fn live_mut(&mut self, index: u32) -> &mut T {
        match &mut self.slots[index as usize] {
            Slot::Live(v) => v,
            _ => unreachable!("slot {index} is not live"),
        }
    }

    /// Every live proxy, by increasing id.
    pub fn iter(&self) -> impl Iterator<Item = (ProxyId, &T)> + '_ {
        self.slots.iter().enumerate().filter_map(|(i, s)| match s {
            Slot::Live(v) => Some((ProxyId(i as u32), v)),
            _ => None,
        })
    }

    /// Number of live proxies.
    pub fn len(&self) -> usize {
        self.live
    }

    /// Number of slots (live, removed and free): one past the largest id handed out.
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// Bytes held by the slot arrays.
    pub fn heap_bytes(&self) -> usize {
        self.slots.capacity() * core::mem::size_of::<Slot<T>>()
            + (self.free.capacity() + self.removed.capacity()) * core::mem::size_of::<u32>()
    }
}

//! The fixed-capacity ring buffer the windowed indicators keep their last `n` inputs in.

/// Fixed-capacity ring buffer holding the last `capacity` values.
#[derive(Debug, Clone)]
pub(super) struct Window {
    pub(super) values: Vec<f64>,
    /// Where the next value goes (also the oldest value once full).
    pub(super) head: usize,
    pub(super) len: usize,
}

impl Window {
    pub(super) fn new(capacity: usize) -> Self {
        Window { values: vec![0.0; capacity], head: 0, len: 0 }
    }

    pub(super) fn capacity(&self) -> usize {
        self.values.len()
    }

    pub(super) fn is_full(&self) -> bool {
        self.len == self.values.len()
    }

    /// Stores `value`; returns the value it replaced when the window was already full.
    #[inline]
    pub(super) fn push(&mut self, value: f64) -> Option<f64> {
        let old = self.values[self.head];
        self.values[self.head] = value;
        self.head += 1;
        if self.head == self.values.len() {
            self.head = 0;
        }
        if self.len == self.values.len() {
            Some(old)
        } else {
            self.len += 1;
            None
        }
    }

    /// The oldest value (valid when full).
    #[inline]
    pub(super) fn oldest(&self) -> f64 {
        self.values[self.head]
    }

    pub(super) fn clear(&mut self) {
        self.head = 0;
        self.len = 0;
    }
}

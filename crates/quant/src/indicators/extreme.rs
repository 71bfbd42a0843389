use super::window::Window;

/// Rolling maximum over a window, shared by [`HighestHigh`](super::HighestHigh) and
/// [`LowestLow`](super::LowestLow).
#[derive(Debug, Clone)]
pub(super) struct Extreme {
    pub(super) window: Window,
    /// Index (0..capacity) of the current extreme in the window storage.
    best: usize,
    best_value: f64,
    /// `+1` for a maximum, `−1` for a minimum (values are compared after multiplying).
    sign: f64,
}

impl Extreme {
    pub(super) fn new(capacity: usize, sign: f64) -> Self {
        Extreme { window: Window::new(capacity), best: 0, best_value: f64::NEG_INFINITY, sign }
    }

    #[inline]
    pub(super) fn next(&mut self, input: f64) -> Option<f64> {
        let slot = self.window.head;
        let keyed = self.sign * input;
        self.window.push(input);
        if keyed >= self.best_value {
            self.best = slot;
            self.best_value = keyed;
        } else if slot == self.best {
            // The extreme just left the window: rescan.
            self.rescan();
        }
        self.window.is_full().then_some(self.sign * self.best_value)
    }

    fn rescan(&mut self) {
        let mut best = 0;
        let mut best_value = f64::NEG_INFINITY;
        for (i, &v) in self.window.values[..self.window.len].iter().enumerate() {
            let keyed = self.sign * v;
            if keyed > best_value {
                best = i;
                best_value = keyed;
            }
        }
        self.best = best;
        self.best_value = best_value;
    }

    pub(super) fn reset(&mut self) {
        self.window.clear();
        self.best = 0;
        self.best_value = f64::NEG_INFINITY;
    }
}

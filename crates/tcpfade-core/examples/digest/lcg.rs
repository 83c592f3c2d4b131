//! What the digest examples share (`link_digest`, `transfer_digest`): a generator of their random configurations.

/// A small LCG: the configurations must not depend on a library's generator, which could change between revisions.
pub struct R(pub u64);
impl R {
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    pub fn pick(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn b(&mut self) -> bool {
        self.pick(2) == 1
    }
    pub fn f(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * (self.next() as f64 / (1u64 << 31) as f64)
    }
}

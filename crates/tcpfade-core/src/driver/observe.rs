//! What watches a link run beside the driver ([`super::link`]): the hooks a bookkeeper gets, and observers made of
//! others (two at once, or one chosen at run time). abouzeid's bad-visit statistics ([`super::visits`]) and the
//! sender's window over time ([`super::window_trace`]) are observers; the driver knows neither.

use crate::channel::clocked::LinkChannel;
use crate::error::Result;
use crate::tcp::Sender;

/// What a driver-specific bookkeeper sees of a link run (abouzeid's bad-visit statistics are one:
/// [`VisitObserver`](crate::driver::visits::VisitObserver)). Every hook has a no-op default, so [`NoObserver`]
/// compiles away.
pub trait LinkObserver {
    /// Before the event at `now` is handled.
    #[inline]
    fn before_event(&mut self, _now: f64, _sender: &Sender) {}
    /// The channel lost the packet whose transmission ended at `now`.
    #[inline]
    fn on_channel_loss(&mut self, _now: f64) {}
    /// The packet whose transmission started at `start` got through (before the receiver sees it).
    #[inline]
    fn on_survived<C: LinkChannel + ?Sized>(&mut self, _start: f64, _channel: &mut C, _sender: &Sender) -> Result<()> {
        Ok(())
    }
    /// After an ACK or a timer at `now` is handled and the sender has sent what it allowed (and at the start, after the
    /// first sends): the sender's state and counts change only then.
    #[inline]
    fn after_sends(&mut self, _now: f64, _sender: &Sender) {}
}

/// Two observers watch one run, `A` first at each hook.
impl<A: LinkObserver, B: LinkObserver> LinkObserver for (A, B) {
    #[inline]
    fn before_event(&mut self, now: f64, sender: &Sender) {
        self.0.before_event(now, sender);
        self.1.before_event(now, sender);
    }
    #[inline]
    fn on_channel_loss(&mut self, now: f64) {
        self.0.on_channel_loss(now);
        self.1.on_channel_loss(now);
    }
    #[inline]
    fn on_survived<C: LinkChannel + ?Sized>(&mut self, start: f64, channel: &mut C, sender: &Sender) -> Result<()> {
        self.0.on_survived(start, channel, sender)?;
        self.1.on_survived(start, channel, sender)
    }
    #[inline]
    fn after_sends(&mut self, now: f64, sender: &Sender) {
        self.0.after_sends(now, sender);
        self.1.after_sends(now, sender);
    }
}

/// An observer chosen at run time: None watches nothing.
impl<O: LinkObserver> LinkObserver for Option<O> {
    #[inline]
    fn before_event(&mut self, now: f64, sender: &Sender) {
        if let Some(o) = self {
            o.before_event(now, sender);
        }
    }
    #[inline]
    fn on_channel_loss(&mut self, now: f64) {
        if let Some(o) = self {
            o.on_channel_loss(now);
        }
    }
    #[inline]
    fn on_survived<C: LinkChannel + ?Sized>(&mut self, start: f64, channel: &mut C, sender: &Sender) -> Result<()> {
        match self {
            Some(o) => o.on_survived(start, channel, sender),
            None => Ok(()),
        }
    }
    #[inline]
    fn after_sends(&mut self, now: f64, sender: &Sender) {
        if let Some(o) = self {
            o.after_sends(now, sender);
        }
    }
}

/// An observer that watches nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoObserver;

impl LinkObserver for NoObserver {}

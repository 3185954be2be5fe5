//! The calendar's duties: what a day brings without a letter (repeats,
//! oversteps by silence, a leave's end, the reminders) in [`duties`], the
//! start sheets in [`start`], and the day's digests in [`digest`].

pub mod digest;
pub mod duties;
pub mod start;

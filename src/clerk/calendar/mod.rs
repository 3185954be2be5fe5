//! The calendar's duties: what a day brings without a letter (repeats,
//! oversteps by silence, a leave's end, the reminders) in [`duties`], and
//! the start sheets in [`start`].

pub mod duties;
pub mod start;

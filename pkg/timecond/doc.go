// Package timecond parses OpenStreetMap conditional restrictions
// ("no @ (Mo-Fr 07:00-09:00)") and evaluates their time conditions, written
// in a subset of the opening_hours syntax, at a local time.
//
// # Supported opening_hours subset
//
// A schedule is one or more rules separated by ";": a later rule replaces
// what earlier ones said about the days it selects, as opening_hours
// specifies ("Mo-Sa 08:00-18:00; Sa 10:00-12:00" is 10 to 12 on Saturdays).
// A rule is an optional date selector, an optional weekday selector,
// optional time spans and an optional "off"/"closed" (or "open") modifier,
// or "24/7"; within a selector, "," separates a list:
//
//   - dates: month ranges and single months (Jan-Mar, Dec-Feb, Aug) and date
//     ranges (Mar 15-Oct 31, Dec 24-Jan 06, Dec 25), wrapping over new year;
//   - weekdays: Mo Tu We Th Fr Sa Su, ranges (Mo-Fr, Fr-Mo) and lists
//     (Mo,We,Fr); PH and SH (public and school holidays) are accepted but
//     never match, since a release carries no holiday calendar: "PH off"
//     changes nothing and "PH 10:00-12:00" is never in force;
//   - times: H:MM or HH:MM spans, lists of spans, end 24:00, and spans past
//     midnight (21:00-02:00 on Mo covers Monday 21:00 to Tuesday 02:00).
//
// Anything else — sunrise/sunset, week numbers, years, nth weekdays,
// open-ended times, comments, "||" fallbacks, "," between whole rules — is
// an error, and so is a
// condition that is not about time at all (destination, wet, weight>7.5):
// the compiler counts those and keeps the way's unconditional tags.
//
// Evaluation is in the country's local time: callers convert the instant
// with the release's time zone first.
package timecond

// The answer schemas of module `timetable` (what `data` carries, as JSON), declared in api/timetable.ts.
export {};

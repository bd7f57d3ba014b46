// The answer schemas of module `staff` (what `data` carries, as JSON), declared in api/staff.ts.
export {};

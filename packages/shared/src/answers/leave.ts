// The answer schemas of module `leave` (what `data` carries, as JSON), declared in api/leave.ts.
export {};

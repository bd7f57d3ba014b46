// The answer schemas of module `courseware` (what `data` carries, as JSON), declared in api/courseware.ts.
export {};

// The answer schemas of module `exams` (what `data` carries, as JSON), declared in api/exams.ts.
export {};

// The answer schemas of module `teaching` (what `data` carries, as JSON), declared in api/teaching.ts.
export {};

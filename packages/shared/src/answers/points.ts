// The answer schemas of module `points` (what `data` carries, as JSON), declared in api/points.ts.
export {};

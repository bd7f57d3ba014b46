// The answer schemas of module `homework` (what `data` carries, as JSON), declared in api/homework.ts.
export {};

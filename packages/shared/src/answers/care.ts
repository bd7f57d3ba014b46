// The answer schemas of module `care` (what `data` carries, as JSON), declared in api/care.ts.
export {};

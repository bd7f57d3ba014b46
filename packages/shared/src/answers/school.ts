// The answer schemas of module `school` (what `data` carries, as JSON), declared in api/school.ts.
export {};

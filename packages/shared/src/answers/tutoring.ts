// The answer schemas of module `tutoring` (what `data` carries, as JSON), declared in api/tutoring.ts.
export {};

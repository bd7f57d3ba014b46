// The answer schemas of module `students` (what `data` carries, as JSON), declared in api/students.ts.
export {};

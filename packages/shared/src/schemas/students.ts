/** Input schemas of the students module (actions.tsv); each action's schema is named after it. */
export {};

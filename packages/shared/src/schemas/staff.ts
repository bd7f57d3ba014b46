/** Input schemas of the staff module (actions.tsv); each action's schema is named after it. */
export {};

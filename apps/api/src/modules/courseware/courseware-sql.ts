/** SQL shared by the courseware services (module `courseware`, issue 15). */

/** The payment kind of a courseware purchase; ref_id is the courseware's id. */
export const COURSEWARE_KIND = 'courseware';

/** Courseware files live under UPLOAD_DIR/.courseware/: a dot folder, which the public /uploads path never serves. */
export const PRIVATE_PREFIX = '.courseware/';

/** The dictionaries' names of a courseware `c` (left joins below). */
export const DICT_JOINS = `
  left join courseware_dicts d_subject on d_subject.id = c.subject_id
  left join courseware_dicts d_discipline on d_discipline.id = c.discipline_id
  left join courseware_dicts d_grade on d_grade.id = c.grade_id
  left join courseware_dicts d_term on d_term.id = c.term_id
  left join courseware_dicts d_tixi on d_tixi.id = c.tixi_id
  left join courseware_dicts d_edition on d_edition.id = c.edition_id`;

/** Whether the school in parameter `school` owns courseware `c` through a purchase (the partial unique index answers it). */
export const ownedBy = (school: string) =>
  `exists (select 1 from courseware_purchases p where p.school_id = ${school} and p.courseware_id = c.id and p.state = 'owned')`;
/** Whether school $1 owns courseware `c`. */
export const OWNED = ownedBy('$1');

/** A courseware row as lists show it, for school $1 (`c` the courseware, with DICT_JOINS). */
export const ROW_COLUMNS = `c.id, c.title, d_subject.name as subject, d_discipline.name as discipline, d_grade.name as grade, d_term.name as term,
  d_tixi.name as tixi, d_edition.name as edition, c.price_fen::float8 as price_fen,
  (select count(*) from courseware_sections s where s.courseware_id = c.id and (s.school_id is null or s.school_id = $1))::int as sections,
  (coalesce(c.school_id = $1, false) or ${OWNED}) as owned, coalesce(c.school_id = $1, false) as own`;

/**
 * What school $1 may see of a courseware `c`: the platform's on sale, the platform's it owns (even withdrawn since),
 * and its own.
 */
export const VISIBLE = `((c.school_id is null and (c.status = 1 or ${OWNED})) or c.school_id = $1)`;

/**
 * Whether school $1 may open the files of section `s` of courseware `c`: its own sections; the publisher's sections of
 * a courseware it owns or its own courseware.
 */
export const FILES_OPEN = `(s.school_id = $1 or (s.school_id is null and (c.school_id = $1 or ${OWNED})))`;

/** The kind of a stored file by its MIME type. */
export const KIND_OF_MIME = `case when f.mime = 'application/pdf' then 'pdf' when f.mime like 'image/%' then 'image' else 'other' end`;

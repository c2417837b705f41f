/**
 * Flow statuses of the API contract (spec 001 §3: the examine_status dictionary), one copy for server and
 * client: the values of an examined record's `examineStatus`.
 */
export const EXAMINE_STATUS = { draft: '0', pending: '1', approved: '2', rejected: '3' } as const;
export type ExamineStatus = (typeof EXAMINE_STATUS)[keyof typeof EXAMINE_STATUS];

/**
 * The system fields every business record carries (DESIGN §4), one copy for server and client.
 *
 * - `SYSTEM_FIELDS`: written by the server only; a submit's body loses them (tenantId, createUser …);
 * - `READABLE_SYSTEM_FIELDS`: system fields a schema's list, search or tree may name (the record's `id` and
 *   its creation and change facts), besides the form's own fields.
 */
export const SYSTEM_FIELDS = ['tenantId', 'createUser', 'createDept', 'createTime', 'updateUser', 'updateTime', 'status', 'isDeleted'] as const;

export const READABLE_SYSTEM_FIELDS = ['id', 'createTime', 'updateTime', 'createUser', 'createDept', 'status'] as const;

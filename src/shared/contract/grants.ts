/**
 * Grant codes (DESIGN §5; spec 002 §3 menus): a menu's code grants reading its screen; its buttons are the
 * menu code with a suffix — `<menu>_add`, `<menu>_edit`, `<menu>_delete` (and `_view`, `_export`, `_import`
 * where a screen has them). The server checks the code a generic operation needs (resources/access.ts), the
 * seed creates the buttons, the client hides what the role lacks.
 */
export const BUTTON_SUFFIX = { add: 'add', edit: 'edit', remove: 'delete', view: 'view', export: 'export', import: 'import' } as const;
export type ButtonOperation = keyof typeof BUTTON_SUFFIX;

/** The button code of `op` on menu `menu` (`patent`, `remove` → `patent_delete`). */
export const buttonCode = (menu: string, op: ButtonOperation) => `${menu}_${BUTTON_SUFFIX[op]}`;

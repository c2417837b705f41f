/**
 * After a save the form refused (issue 18 defect 6: a failed save whose first error was above the visible part
 * of a long form looked like nothing happened): scroll to the first field showing an error, focus its input,
 * and say how many fields need attention (rt.invalidFields: 有 N 项需要修改 / N fields need attention).
 *
 * The fields are the form's error feedbacks (Formily `form.errors`, one per field path) or the server's field
 * errors placed on fields; the first is the first erroneous form item in document order inside `container`.
 */
import type { Form } from '@formily/core';

/** The number of distinct fields of `form` holding an error. */
export function invalidCount(form: Form): number {
  return new Set(form.errors.map((e) => e.address ?? e.path)).size;
}

/** Scrolls the first erroneous item inside `container` into view and focuses its first control; true if found. */
export function revealFirstInvalid(container: HTMLElement | null): boolean {
  const item = container?.querySelector<HTMLElement>('.ant-formily-item-error');
  if (!item) return false;
  item.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
  const control = item.querySelector<HTMLElement>('input:not([type=hidden]):not([disabled]), textarea:not([disabled]), .ant-select-selector, button:not([disabled])');
  control?.focus?.({ preventScroll: true });
  return true;
}

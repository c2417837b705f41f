/** bpmn-moddle ships no typings; the module uses `fromXML` only (bpmn.ts). */
declare module 'bpmn-moddle' {
  export default class BpmnModdle {
    constructor(packages?: Record<string, unknown>);
    fromXML(xml: string): Promise<{ rootElement: unknown; warnings: Array<{ message: string }> }>;
  }
}

/** One rule of ../shared/SPEC.md, as this repository keeps it (the specification lives outside it). */
export interface SpecRule {
  /** `<section>.<name>`, e.g. `5.username`; tests name it in their titles as `[spec 5.username]` */
  id: string;
  /** the rule, in SPEC's words or close to them */
  rule: string;
  /** only for a rule no test can observe: why (e.g. SPEC says the detail is "not shown") */
  reason?: string;
  /**
   * where the product knowingly departs from the rule: what it does instead and why. Its tests pin what
   * the product does, so a deviation needs them as any rule does.
   */
  deviation?: string;
}

import type { RulePackInput } from '@loupe/contract';

/** What a new pack starts from: one small rule of each common kind, to edit or delete. */
export const newPackTemplate: RulePackInput = {
  schema: 'loupe.rules/v1',
  name: 'House rules',
  rules: [
    {
      id: 'content/thin-page',
      title: 'Page has fewer than 150 words',
      category: 'content',
      severity: 'warning',
      when: { type: 'metric', metric: 'wordCount', cmp: { op: 'lt', value: 150 } },
      message: '{{path}} has {{value}} words',
      help: { why: 'Thin pages rarely answer a visitor’s question.', fix: 'Add content, or merge the page into another.' },
    },
    {
      id: 'content/placeholder-copy',
      title: 'Placeholder copy left on a live page',
      category: 'content',
      severity: 'error',
      when: { type: 'text', source: 'visible', str: { matches: '\\blorem ipsum\\b' } },
      message: 'Placeholder “{{match}}” on {{path}}',
    },
  ],
};

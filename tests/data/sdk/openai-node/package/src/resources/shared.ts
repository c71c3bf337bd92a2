export type ChatModel =
  | 'gpt-x'
  | 'Llama-3.1-8B-Instruct';

/**
 * Deprecated values:
 *
 * - "gpt-x", "Llama-3.1-8B-Instruct": Announced shutdown date:
 *   2027-04-01. See https://developers.openai.com/api/docs/deprecations for details
 *   and recommended replacements.
 * - "gpt-y": Not a supported model ID. Retained for SDK compatibility.
 *
 * Other text with "quoted" words that are no model.
 */

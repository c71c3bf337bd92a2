// The chat widget picks its model here.
export const MODEL = "claude-sonnet-4-5";
export const GATEWAY_MODEL: string = 'anthropic/claude-sonnet-4.5';
const label = `claude-sonnet-4-5-20250929`;
const buildId = "3f2a9c1e-2024-02-29";
export const LLAMA = "Llama-3.1-8B-Instruct";

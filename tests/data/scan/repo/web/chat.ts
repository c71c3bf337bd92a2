// The chat widget picks its model here.
export const MODEL = "claude-3-5-sonnet-latest";
export const GATEWAY_MODEL: string = 'anthropic/claude-3.5-sonnet';
const label = `Claude-3-Sonnet-20240229`;
const buildId = "3f2a9c1e-2024-02-29";
export const LLAMA = "Llama-3.1-8B-Instruct";

/** The LLM Spaces MCP server's version: VS Code asks for its tools again when it changes. */
export const MCP_SERVER_VERSION = '0.3.0';

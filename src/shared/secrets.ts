// How a secret is shown: only its last four characters, so the user can tell which one is set.
export const maskSecret = (value: string | null | undefined) => (value ? `••••${value.slice(-4)}` : 'not set');

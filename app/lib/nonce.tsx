import { createContext, useContext } from "react";

// The per-request Content-Security-Policy nonce, so inline scripts React Router emits are allowed.
const NonceContext = createContext<string>("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);

import type { ComponentProps } from "react";
import { useNavigate } from "react-router";
import { Button } from "#app/components/ui/button.tsx";

/**
 * History back when this tab came from another page of the site, else the home page
 * (a visitor who landed here from a search result must not be sent off-site or nowhere).
 */
export function GoBackButton({ children = "Go Back", ...props }: Omit<ComponentProps<typeof Button>, "onClick">) {
  const navigate = useNavigate();
  return (
    <Button
      type="button"
      {...props}
      onClick={() => {
        const idx = (window.history.state as { idx?: number } | null)?.idx;
        if (typeof idx === "number" && idx > 0) navigate(-1);
        // A full page load from another of our pages starts a fresh router history (idx 0).
        else if (document.referrer.startsWith(window.location.origin + "/") && window.history.length > 1) window.history.back();
        else navigate("/");
      }}
    >
      {children}
    </Button>
  );
}

// The consoles' style sheet, added to the page once (the page's policy allows its inline styles).
export const STYLE = `
.try-console{margin:16px 0 24px;padding:12px 16px;border:1px solid #c9d3e0;border-radius:6px;background:#f7f9fc;font:14px/1.45 system-ui,sans-serif;color:#1f2933}
.try-console summary{cursor:pointer;font-weight:600;overflow-wrap:anywhere}
.try-note{margin:8px 0;color:#52606d;font-size:13px}
.try-params{display:grid;grid-template-columns:repeat(auto-fill,minmax(230px,1fr));gap:8px 12px;margin:8px 0}
.try-param{display:flex;flex-direction:column;gap:2px;font-size:12px;color:#52606d;min-width:0}
.try-param input,.try-clock-bar input[type=number]{font:13px ui-monospace,monospace;padding:4px 6px;border:1px solid #b8c4d3;border-radius:4px;min-width:0}
.try-clock-bar input[type=number]{width:70px}
.try-body-label{display:flex;flex-direction:column;gap:2px;font-size:12px;color:#52606d}
.try-console textarea{font:12px/1.4 ui-monospace,monospace;width:100%;box-sizing:border-box;padding:6px;border:1px solid #b8c4d3;border-radius:4px;resize:vertical}
.try-console button{font:13px system-ui,sans-serif;padding:4px 10px;border:1px solid #8a9bb0;border-radius:4px;background:#fff;cursor:pointer}
.try-console button.try-send{background:#1d4ed8;border-color:#1d4ed8;color:#fff;font-weight:600}
.try-console button:disabled{opacity:.6}
.try-actions{margin:8px 0}
.try-answer{margin:8px 0;border-top:1px solid #c9d3e0;padding-top:8px}
.try-console pre{margin:4px 0;padding:8px;background:#fff;border:1px solid #dde3ea;border-radius:4px;font:12px/1.4 ui-monospace,monospace;white-space:pre-wrap;overflow-wrap:anywhere;max-height:320px;overflow:auto}
.try-clock-bar{display:flex;flex-wrap:wrap;align-items:center;gap:8px;margin:8px 0;font-size:12px;color:#52606d}
.try-samples{display:grid;grid-template-columns:repeat(auto-fit,minmax(260px,1fr));gap:8px}
.try-sample-head{display:flex;justify-content:space-between;align-items:center;font-size:12px;color:#52606d}
.try-log{margin:8px 0;padding-left:20px;font:12px/1.5 ui-monospace,monospace}
`;

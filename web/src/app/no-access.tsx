/** What a tab without a valid token shows instead of the app: how to get in. */
export function NoAccess() {
  return (
    <div className="app">
      <main className="no-access" role="alert">
        <h1>taskweave needs its access token</h1>
        <p>
          Open the URL <code>taskweave serve</code> printed in its terminal (it ends in <code>#token=…</code>
          ). A restarted server prints a new one.
        </p>
      </main>
    </div>
  );
}

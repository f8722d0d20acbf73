// The app shell; views arrive with the UI issue.
export function App() {
  return <main>LetAgents</main>;
}

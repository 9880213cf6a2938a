export default function ServersPage() {
  return <div>ServersPage</div>;
}

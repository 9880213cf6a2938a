export default function BatchPage() {
  return <div>BatchPage</div>;
}

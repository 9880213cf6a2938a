export default function PushPage() {
  return <div>PushPage</div>;
}

export default function RetriesPage() {
  return <div>RetriesPage</div>;
}

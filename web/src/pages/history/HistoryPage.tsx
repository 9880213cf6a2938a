export default function HistoryPage() {
  return <div>HistoryPage</div>;
}

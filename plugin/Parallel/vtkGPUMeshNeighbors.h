// The processes a piece touches, found from one bounding box per process, and exchanges with
// those processes only (private to the module). What a process sends or receives grows with its
// interface and its number of neighbours, never with the number of processes times the
// interface: the boxes are the only all-gathered data (6 doubles per process).
#ifndef vtkGPUMeshNeighbors_h
#define vtkGPUMeshNeighbors_h

#include "vtkType.h"

#include "gpumesh/runtime/HostMemory.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

class vtkMultiProcessController;
class vtkPointSet;

class vtkGPUMeshNeighbors
{
public:
  /// The bytes of one message: resized without zeroing (the receive writes every byte), in
  /// pages kept for reuse once large (gpumesh::allocateHostMemory): a fresh page costs a fault
  /// on first touch, which cost more than writing a ghost layer's messages on a VM.
  using Buffer = gpumesh::HostVector<char>;

  /// xmin, xmax, ymin, ymax, zmin, zmax; empty (no point) when a minimum exceeds its maximum.
  using Box = std::array<double, 6>;
  static Box EmptyBox();
  /// The range of the coordinates of `points`' points, unused ones too (as the serial adapter
  /// takes them), NaN left out; empty without points. One pass on all threads, which also
  /// sets *firstNonFinite (when given) to the first point with a coordinate that is not
  /// finite, or -1.
  static Box BoxOf(vtkPointSet* points, vtkIdType* firstNonFinite = nullptr);
  static bool Contains(const Box& box, const double point[3]);

  vtkGPUMeshNeighbors() = default;

  /// Collective: gathers every process's box and keeps the other processes whose box meets
  /// `mine` (closed boxes: a shared face, edge or corner counts). A point two processes hold
  /// lies in both boxes, so it is shared with a neighbour only. An empty box meets none.
  vtkGPUMeshNeighbors(vtkMultiProcessController* controller, const Box& mine);

  /// This process's box, as given.
  const Box& OwnBox() const { return this->Own; }
  /// The neighbouring processes, ascending.
  const std::vector<int>& Ranks() const { return this->NeighborRanks; }
  /// The box of neighbour `n` (an index into Ranks()).
  const Box& BoxOf(std::size_t n) const { return this->NeighborBoxes[n]; }
  std::size_t Count() const { return this->NeighborRanks.size(); }

  /// Collective among neighbours (every process calls it, with one buffer per neighbour in
  /// Ranks() order, empty ones included): returns what each neighbour sent to this process, in
  /// the same order. Non-blocking sends and receives under MPI.
  std::vector<Buffer> Exchange(const std::vector<Buffer>& sent);

  /// Bytes sent to, or received from, one neighbour, in the caller's memory.
  struct OutgoingBytes
  {
    const char* Data = nullptr;
    std::size_t Size = 0;
  };
  struct IncomingBytes
  {
    char* Data = nullptr;
    std::size_t Size = 0;
  };
  /// Exchange where every process knows beforehand how many bytes each neighbour sends it (a
  /// plan both sides made together, such as the point halo's), without copies (in Ranks()
  /// order): what goes to neighbour n is read from sent[n], and what it sends arrives in
  /// received[n], of the planned size. The payloads go at once, without a round of sizes. Under
  /// MPI, a neighbour sending more than planned is MPI's error; without MPI, it throws.
  void Exchange(const std::vector<OutgoingBytes>& sent, const std::vector<IncomingBytes>& received);

  /// Exchange of trivially copyable values.
  template <typename T>
  std::vector<std::vector<T>> ExchangeValues(const std::vector<std::vector<T>>& sent)
  {
    static_assert(std::is_trivially_copyable<T>::value, "values travel as bytes");
    std::vector<Buffer> bytes(sent.size());
    for (std::size_t n = 0; n < sent.size(); ++n)
    {
      bytes[n].resize(sent[n].size() * sizeof(T));
      if (!sent[n].empty())
        std::memcpy(bytes[n].data(), sent[n].data(), bytes[n].size());
    }
    const std::vector<Buffer> received = this->Exchange(bytes);
    std::vector<std::vector<T>> values(received.size());
    for (std::size_t n = 0; n < received.size(); ++n)
    {
      values[n].resize(received[n].size() / sizeof(T));
      if (!values[n].empty())
        std::memcpy(values[n].data(), received[n].data(), values[n].size() * sizeof(T));
    }
    return values;
  }

  /// Bytes this process sent and received in all exchanges so far (the boxes left out).
  std::uint64_t BytesExchanged() const { return this->Bytes; }

private:
  // Exchange, with the sizes received first unless `expected` gives them.
  std::vector<Buffer> ExchangeSized(const std::vector<Buffer>& sent, const std::vector<std::size_t>* expected);

  vtkMultiProcessController* Controller = nullptr;
  std::vector<int> NeighborRanks;
  std::vector<Box> NeighborBoxes;
  Box Own = EmptyBox();
  std::uint64_t Bytes = 0;
};

#endif

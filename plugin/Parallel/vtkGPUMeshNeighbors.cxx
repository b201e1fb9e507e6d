#include "vtkGPUMeshNeighbors.h"

#include "vtkArrayDispatch.h"
#include "vtkCommunicator.h"
#include "vtkDataArray.h"
#include "vtkDataArrayRange.h"
#include "vtkMPICommunicator.h"
#include "vtkMultiProcessController.h"
#include "vtkPointSet.h"
#include "vtkPoints.h"

#include "vtkGPUMeshDistributed.h"
#include "vtkGPUMeshHostLoops.h"

#include "gpumesh/runtime/Error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace
{
// Tags of the two messages of an exchange; every exchange completes before the next starts,
// and MPI keeps the order of messages between two processes, so they cannot be confused.
constexpr int sizeTag = 48611;
constexpr int payloadTag = 48612;
// MPI counts are ints: larger buffers go in pieces.
constexpr std::size_t largestMessage = std::size_t(1) << 30;

bool meets(const vtkGPUMeshNeighbors::Box& a, const vtkGPUMeshNeighbors::Box& b)
{
  for (int c = 0; c < 3; ++c)
  {
    if (a[2 * c] > a[2 * c + 1] || b[2 * c] > b[2 * c + 1] || a[2 * c] > b[2 * c + 1] || b[2 * c] > a[2 * c + 1])
    {
      return false;
    }
  }
  return true;
}
} // namespace

vtkGPUMeshNeighbors::Box vtkGPUMeshNeighbors::EmptyBox()
{
  const double inf = std::numeric_limits<double>::infinity();
  return { inf, -inf, inf, -inf, inf, -inf };
}

namespace
{
// The box of an array of 3-component points in one pass on all threads (three GetRange calls
// read the points three times, and cost tens of milliseconds at 10^7 points). NaN coordinates
// are left out, as GetRange leaves them out.
struct BoxOfPoints
{
  vtkGPUMeshNeighbors::Box Result = vtkGPUMeshNeighbors::EmptyBox();
  vtkIdType FirstNonFinite = -1;

  template <typename Array>
  void operator()(Array* xyz)
  {
    const auto values = vtk::DataArrayTupleRange<3>(xyz);
    const vtkIdType points = xyz->GetNumberOfTuples();
    constexpr vtkIdType block = 1 << 16;
    const vtkIdType blocks = (points + block - 1) / block;
    std::vector<vtkGPUMeshNeighbors::Box> perBlock(static_cast<std::size_t>(blocks), vtkGPUMeshNeighbors::EmptyBox());
    std::vector<vtkIdType> nonFinite(static_cast<std::size_t>(blocks), -1);
    vtkGPUMeshHostLoops::For(0, blocks, [&](vtkIdType first, vtkIdType last) {
      for (vtkIdType b = first; b < last; ++b)
      {
        double lo[3], hi[3];
        for (int c = 0; c < 3; ++c)
        {
          lo[c] = std::numeric_limits<double>::infinity();
          hi[c] = -lo[c];
        }
        bool finite = true;
        for (vtkIdType p = b * block; p < std::min(points, (b + 1) * block); ++p)
        {
          for (int c = 0; c < 3; ++c)
          {
            const double v = static_cast<double>(values[p][c]);
            lo[c] = v < lo[c] ? v : lo[c];
            hi[c] = v > hi[c] ? v : hi[c];
            finite = finite && std::isfinite(v);
          }
          if (!finite && nonFinite[b] < 0)
            nonFinite[b] = p;
        }
        for (int c = 0; c < 3; ++c)
        {
          perBlock[b][2 * c] = lo[c];
          perBlock[b][2 * c + 1] = hi[c];
        }
      }
    });
    for (vtkIdType b = 0; b < blocks && this->FirstNonFinite < 0; ++b)
      this->FirstNonFinite = nonFinite[b];
    for (const auto& box : perBlock)
    {
      for (int c = 0; c < 3; ++c)
      {
        this->Result[2 * c] = std::min(this->Result[2 * c], box[2 * c]);
        this->Result[2 * c + 1] = std::max(this->Result[2 * c + 1], box[2 * c + 1]);
      }
    }
  }
};
} // namespace

vtkGPUMeshNeighbors::Box vtkGPUMeshNeighbors::BoxOf(vtkPointSet* points, vtkIdType* firstNonFinite)
{
  if (firstNonFinite)
  {
    *firstNonFinite = -1;
  }
  if (!points->GetPoints() || points->GetNumberOfPoints() == 0)
  {
    return EmptyBox();
  }
  vtkDataArray* xyz = points->GetPoints()->GetData();
  BoxOfPoints finder;
  if (!vtkArrayDispatch::DispatchByValueType<vtkArrayDispatch::Reals>::Execute(xyz, finder))
  {
    finder(xyz);
  }
  if (firstNonFinite)
  {
    *firstNonFinite = finder.FirstNonFinite;
  }
  return finder.Result;
}

bool vtkGPUMeshNeighbors::Contains(const Box& box, const double point[3])
{
  return box[0] <= point[0] && point[0] <= box[1] && box[2] <= point[1] && point[1] <= box[3] &&
    box[4] <= point[2] && point[2] <= box[5];
}

vtkGPUMeshNeighbors::vtkGPUMeshNeighbors(vtkMultiProcessController* controller, const Box& mine)
  : Controller(controller)
  , Own(mine)
{
  if (!controller)
  {
    return;
  }
  const int processes = controller->GetNumberOfProcesses();
  const int rank = controller->GetLocalProcessId();
  std::vector<double> all(6 * static_cast<std::size_t>(processes));
  controller->AllGather(mine.data(), all.data(), 6);
  for (int p = 0; p < processes; ++p)
  {
    Box box;
    std::copy_n(all.data() + 6 * static_cast<std::size_t>(p), 6, box.begin());
    if (p != rank && meets(mine, box))
    {
      this->NeighborRanks.push_back(p);
      this->NeighborBoxes.push_back(box);
    }
  }
}

namespace
{
// `requests` completed: MPI's WaitAll, or, where the node's processes share its cores,
// vtkGPUMeshDistributed::WaitPatiently.
void waitAll(vtkMPICommunicator* mpi, std::vector<vtkMPICommunicator::Request>& requests)
{
  if (requests.empty())
  {
    return;
  }
  if (!vtkGPUMeshDistributed::CoresShared())
  {
    mpi->WaitAll(static_cast<int>(requests.size()), requests.data());
    return;
  }
  vtkGPUMeshDistributed::WaitPatiently([&] {
    int done = 0;
    mpi->TestAll(static_cast<int>(requests.size()), requests.data(), done);
    return done != 0;
  });
}

// Posts every payload, received and sent (in pieces of at most largestMessage bytes), and
// waits for them all.
void exchangePayloads(vtkMPICommunicator* mpi, const std::vector<int>& ranks,
  const std::vector<vtkGPUMeshNeighbors::OutgoingBytes>& sent,
  const std::vector<vtkGPUMeshNeighbors::IncomingBytes>& received)
{
  std::vector<vtkMPICommunicator::Request> payload;
  payload.reserve(4 * ranks.size());
  for (std::size_t n = 0; n < ranks.size(); ++n)
  {
    for (std::size_t at = 0; at < received[n].Size; at += largestMessage)
    {
      payload.emplace_back();
      mpi->NoBlockReceive(received[n].Data + at, static_cast<int>(std::min(largestMessage, received[n].Size - at)),
        ranks[n], payloadTag, payload.back());
    }
  }
  for (std::size_t n = 0; n < ranks.size(); ++n)
  {
    for (std::size_t at = 0; at < sent[n].Size; at += largestMessage)
    {
      payload.emplace_back();
      mpi->NoBlockSend(sent[n].Data + at,
        static_cast<int>(std::min(largestMessage, sent[n].Size - at)), ranks[n], payloadTag, payload.back());
    }
  }
  waitAll(mpi, payload);
}
} // namespace

std::vector<vtkGPUMeshNeighbors::Buffer> vtkGPUMeshNeighbors::Exchange(const std::vector<Buffer>& sent)
{
  return this->ExchangeSized(sent, nullptr);
}

std::vector<vtkGPUMeshNeighbors::Buffer> vtkGPUMeshNeighbors::ExchangeSized(
  const std::vector<Buffer>& sent, const std::vector<std::size_t>* expected)
{
  const std::size_t count = this->NeighborRanks.size();
  std::vector<Buffer> received(count);
  if (count == 0)
  {
    return received;
  }
  std::vector<vtkIdType> sizesOut(count), sizesIn(count, 0);
  for (std::size_t n = 0; n < count; ++n)
  {
    sizesOut[n] = static_cast<vtkIdType>(n < sent.size() ? sent[n].size() : 0);
    if (expected)
      sizesIn[n] = static_cast<vtkIdType>(n < expected->size() ? (*expected)[n] : 0);
  }
  auto* mpi = vtkMPICommunicator::SafeDownCast(this->Controller->GetCommunicator());
  if (mpi)
  {
    if (!expected)
    {
      std::vector<vtkMPICommunicator::Request> requests(2 * count);
      for (std::size_t n = 0; n < count; ++n)
      {
        mpi->NoBlockReceive(&sizesIn[n], 1, this->NeighborRanks[n], sizeTag, requests[n]);
        mpi->NoBlockSend(&sizesOut[n], 1, this->NeighborRanks[n], sizeTag, requests[count + n]);
      }
      waitAll(mpi, requests);
    }
    std::vector<OutgoingBytes> outgoing(count);
    std::vector<IncomingBytes> incoming(count);
    for (std::size_t n = 0; n < count; ++n)
    {
      received[n].resize(static_cast<std::size_t>(sizesIn[n]));
      incoming[n] = { received[n].data(), received[n].size() };
      outgoing[n] = { n < sent.size() ? sent[n].data() : nullptr, static_cast<std::size_t>(sizesOut[n]) };
    }
    exchangePayloads(mpi, this->NeighborRanks, outgoing, incoming);
  }
  else
  {
    // Blocking, in an order that cannot deadlock: with each neighbour, the lower rank sends
    // first. Sizes always go first here (both sides take this way), checked where expected.
    const std::vector<vtkIdType> expectedIn = sizesIn;
    const int rank = this->Controller->GetLocalProcessId();
    for (std::size_t n = 0; n < count; ++n)
    {
      const int other = this->NeighborRanks[n];
      const auto send = [&] {
        this->Controller->Send(&sizesOut[n], 1, other, sizeTag);
        if (sizesOut[n] > 0)
          this->Controller->Send(sent[n].data(), sizesOut[n], other, payloadTag);
      };
      const auto receive = [&] {
        this->Controller->Receive(&sizesIn[n], 1, other, sizeTag);
        received[n].resize(static_cast<std::size_t>(sizesIn[n]));
        if (sizesIn[n] > 0)
          this->Controller->Receive(received[n].data(), sizesIn[n], other, payloadTag);
      };
      if (rank < other)
      {
        send();
        receive();
      }
      else
      {
        receive();
        send();
      }
    }
    for (std::size_t n = 0; expected && n < count; ++n)
    {
      if (sizesIn[n] != expectedIn[n])
        throw gpumesh::Error("Process " + std::to_string(this->NeighborRanks[n]) + " sent " +
          std::to_string(sizesIn[n]) + " bytes instead of the " + std::to_string(expectedIn[n]) + " expected");
    }
  }
  for (std::size_t n = 0; n < count; ++n)
  {
    this->Bytes += static_cast<std::uint64_t>(sizesOut[n] + sizesIn[n]);
  }
  return received;
}

void vtkGPUMeshNeighbors::Exchange(const std::vector<OutgoingBytes>& sent, const std::vector<IncomingBytes>& received)
{
  const std::size_t count = this->NeighborRanks.size();
  if (sent.size() != count || received.size() != count)
  {
    throw gpumesh::Error("An exchange with " + std::to_string(count) + " neighbours was given " +
      std::to_string(sent.size()) + " messages to send and " + std::to_string(received.size()) + " to receive");
  }
  auto* mpi = vtkMPICommunicator::SafeDownCast(this->Controller ? this->Controller->GetCommunicator() : nullptr);
  if (!mpi)
  {
    // Without MPI the sizes go first, checked against the plan: through the buffered exchange.
    std::vector<Buffer> copies(count);
    std::vector<std::size_t> expected(count);
    for (std::size_t n = 0; n < count; ++n)
    {
      copies[n].assign(sent[n].Data, sent[n].Data + sent[n].Size);
      expected[n] = received[n].Size;
    }
    const std::vector<Buffer> heard = this->ExchangeSized(copies, &expected);
    for (std::size_t n = 0; n < count; ++n)
    {
      if (!heard[n].empty())
        std::memcpy(received[n].Data, heard[n].data(), heard[n].size());
    }
    return;
  }
  exchangePayloads(mpi, this->NeighborRanks, sent, received);
  for (std::size_t n = 0; n < count; ++n)
  {
    this->Bytes += static_cast<std::uint64_t>(sent[n].Size + received[n].Size);
  }
}
